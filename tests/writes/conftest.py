"""The counting service of the client tests, for the outbox tests."""

from tests.client.conftest import counted

__all__ = ["counted"]
