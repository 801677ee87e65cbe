"""One game site per test module, over the session's Dovecot and aiosmtpd."""

from __future__ import annotations

import pytest

from tests.faults.site import Site


@pytest.fixture(scope="module")
def site(tmp_path_factory, dovecot, smtp_server):
    smtp_server.reset()
    return Site(tmp_path_factory.mktemp("faults"), dovecot, smtp_server).start()


@pytest.fixture
def make_site(tmp_path_factory, dovecot, smtp_server):
    """A separate game site, e.g. with a small daily reply cap."""

    def make(**settings) -> Site:
        return Site(tmp_path_factory.mktemp("faults-own"), dovecot, smtp_server, **settings).start()

    return make
