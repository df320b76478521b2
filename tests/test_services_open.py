"""Who owns the store `open_services` is given: the caller, unless the services adopt it (`kbx ask`
opens its store before importing the answering stack, so that a cold embedded server starts while
that loads, and hands it over)."""

from __future__ import annotations

from pathlib import Path

import pytest
from api_support import offline_settings
from kb_fixtures import KB_MINI

from api.services import open_services
from providers.memory import MemoryProvider
from retrieval.corpus import Corpus

pytest_plugins = ["api_fixtures"]


class Watched(MemoryProvider):
    """The networkx store, counting what the services do with it."""

    def __init__(self) -> None:
        super().__init__(graph_name="kbx:shuihu")
        self.connects = 0
        self.closes = 0

    def connect_in_background(self) -> None:
        self.connects += 1

    def close(self) -> None:
        self.closes += 1


@pytest.mark.parametrize("adopt", [False, True])
def test_an_adopted_store_is_connected_and_closed_as_the_services_own(
        tmp_path: Path, api_corpus: Corpus, adopt: bool) -> None:
    store = Watched()
    settings = offline_settings(tmp_path, provider="memory", bundle=KB_MINI)
    services = open_services(settings, provider=store, corpus=api_corpus, adopt=adopt)
    assert services.provider is store
    assert services.require_provider().stats().people > 0  # loaded, as an empty store is
    services.close()
    assert (store.connects, store.closes) == ((1, 1) if adopt else (0, 0))


def test_an_adopted_store_is_closed_when_the_bundle_fails(tmp_path: Path,
                                                          api_corpus: Corpus) -> None:
    store = Watched()
    settings = offline_settings(tmp_path, provider="memory", bundle=tmp_path / "no-such-bundle")
    with pytest.raises(Exception, match="no such bundle"):
        open_services(settings, provider=store, corpus=api_corpus, adopt=True)
    assert store.closes == 1
