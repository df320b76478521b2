"""docker-compose.yml and the Dockerfile: FalkorDB pinned to the embedded engine's version."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import redis
import yaml

from providers.embedded import EmbeddedServer

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text("utf-8"))
    return data


def _semver(module_ver: int) -> str:
    """FalkorDB reports 4.16.3 as 41603."""
    return f"{module_ver // 10000}.{module_ver // 100 % 100}.{module_ver % 100}"


@pytest.mark.falkordb
def test_image_matches_the_embedded_engine(compose: dict[str, Any],
                                           kb_falkordb_server: EmbeddedServer) -> None:
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
    assert "pip install ." in text
    assert 'CMD ["kbx", "serve", "--host", "0.0.0.0", "--port", "8000"]' in text
