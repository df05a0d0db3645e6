"""The keys one run holds, and which one each request goes with.

A profile is one organization on one service with one key per environment: a key
belongs to one environment, and the service lets it read and change only that one. So
a request that acts in an environment goes with that environment's key, and where the
profile holds none, nothing is sent and the user is told which key is missing and the
command that adds it.

`NOVU_SECRET_KEY` or `--api-key` stands in for the whole set: one key, whose environment
is learned from the service when it matters. A profile written before keys were filed
by environment holds one `api_key`; on its first connection the service names the
key's environment and the key moves to that environment's table (`file_learned`).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from inboxdesk.config.file import ConfigFile
from inboxdesk.config.provenance import Origin
from inboxdesk.config.settings import Settings
from inboxdesk.config.values import FIRST_RUN, KEY_ENV, ConfigError
from inboxdesk.text import safe

if TYPE_CHECKING:
    from inboxdesk.client import InboxClient
    from inboxdesk.models import Environment

PRODUCTION_TYPE = "prod"


@dataclass(frozen=True)
class HeldKey:
    """One environment's key. `environment_id` is "" until the service has named it."""

    environment_id: str
    name: str
    type: str | None
    api_key: str = field(repr=False)
    read_only: bool = False

    @property
    def label(self) -> str:
        """The environment's name, safe to show; its id, or a stand-in, before one is known."""
        return safe(self.name or self.environment_id or "the key's environment", newlines=False)

    @property
    def production(self) -> bool:
        return self.type == PRODUCTION_TYPE

    def names(self, typed: str) -> bool:
        """True when `typed` names this key's environment: its name or id, in any case."""
        wanted = safe(typed.strip(), newlines=False).casefold()
        return bool(wanted) and wanted in {
            safe(n, newlines=False).casefold() for n in (self.name, self.environment_id) if n
        }


class Keyring:
    """The keys of one run: the profile's, one per environment, or the one key given by
    the environment or a flag (`single`). The first is the default environment's."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.profile = settings.profile
        # Only a profile read from the file is written back (the demo's lives in memory).
        self.persist = settings.provenance["profile"].origin is not Origin.DEFAULT
        origin = settings.provenance["api_key"].origin
        self.single = bool(settings.api_key) and origin in (Origin.FLAG, Origin.ENV)
        # A profile's own `api_key`, from before keys were filed by environment.
        self.unfiled = bool(settings.api_key) and not self.single
        if settings.api_key and (self.single or not settings.environments):
            self.keys = [HeldKey("", "", None, settings.api_key)]
        else:
            self.keys = [
                HeldKey(env_id, held.name, held.type, held.api_key, held.read_only)
                for env_id, held in settings.environments.items()
            ]
            self.unfiled = False

    # -- which key ----------------------------------------------------------------------

    def named(self, typed: str) -> HeldKey | None:
        """The key of the environment `typed` names: by exact name or id first, else in
        any case when only one matches. ConfigError when it names several."""
        exact = [k for k in self.keys if typed.strip() in {k.name, k.environment_id} - {""}]
        found = exact if len(exact) == 1 else [k for k in self.keys if k.names(typed)]
        if len(found) > 1:
            listed = ", ".join(f"{k.label} ({k.environment_id or 'id unknown'})" for k in found)
            raise ConfigError(
                f"{safe(typed, newlines=False)!r} names {len(found)} environments of profile "
                f"{self.profile or '(none)'}: {listed}. Nothing was sent; give the "
                "environment's exact name or its id."
            )
        return found[0] if found else None

    def of(self, environment_id: str | None) -> HeldKey | None:
        """The key of the environment with this id, if one is held."""
        return next(
            (k for k in self.keys if environment_id and k.environment_id == environment_id), None
        )

    def current(self) -> HeldKey:
        """The key of the environment to act in: `--environment` (or the profile's
        `environment` setting), else the first. Raises ConfigError, naming the key to add."""
        if not self.keys:
            raise ConfigError(f"No API key. {FIRST_RUN}")
        wanted = self.settings.environment
        if wanted is None:
            return self.keys[0]
        found = self.named(wanted)
        if found is not None:
            return found
        if not self.keys[0].environment_id:
            return self.keys[0]  # not named yet: `check_named` compares once it is
        raise self.missing(safe(wanted, newlines=False))

    def check_named(self, held: HeldKey) -> None:
        """A key given alone, once the service has named its environment: it must be the
        one `--environment` names, or nothing is sent."""
        wanted = self.settings.environment
        if wanted is not None and held.environment_id and not held.names(wanted):
            raise self.missing(safe(wanted, newlines=False))

    # -- what to say ----------------------------------------------------------------------

    def add_command(self) -> str:
        return f"inboxdesk config add-key {self.profile or 'PROFILE'}"

    def held_names(self) -> str:
        return ", ".join(k.label for k in self.keys) or "none"

    def _single_source(self) -> str:
        """Where the one key given alone came from: the variable or the option."""
        return KEY_ENV if self.settings.provenance["api_key"].origin is Origin.ENV else "--api-key"

    def no_other(self, held: str) -> str:
        """Why there is no other environment to switch to, and what to do: a key given
        alone replaces the profile's set, so adding a key to it changes nothing."""
        if self.single:
            source = self._single_source()
            return (
                f"{source} holds one key, {held}'s, and replaces the profile's "
                f"keys: unset {source} to use the profile's (`inboxdesk config add-key "
                "PROFILE` saves each environment's)."
            )
        return f"Only {held}'s key is held; `{self.add_command()}` adds another."

    def missing(self, name: str) -> ConfigError:
        """No key for the environment `name` (safe to show): nothing is sent."""
        if self.single:
            source = self._single_source()
            return ConfigError(
                f"{source} holds one key, {self.keys[0].label}'s, and no key for {name}: "
                f"nothing was sent. Save each environment's key in a profile with "
                f"`inboxdesk config add-key PROFILE` (the key on standard input), then "
                f"unset {source}."
            )
        return ConfigError(
            f"Profile {self.profile or '(none)'} holds no key for {name} (it holds "
            f"{self.held_names()}): nothing was sent. Add that environment's key with "
            f"`{self.add_command()}` (the key on standard input)."
        )

    def add_hint(self) -> str:
        """How to add a missing environment's key, as a short clause."""
        return f"`{self.add_command()}`"

    # -- learning a key's environment ----------------------------------------------------

    def learned(self, old: HeldKey, environment: Environment) -> HeldKey:
        """`old` with its environment as the service named it; a profile's unfiled key
        moves to that environment's table, and a changed name is written down."""
        filed = self.settings.environments.get(environment.id)
        new = replace(
            old,
            environment_id=environment.id,
            name=environment.name,
            # A type the service leaves out (it may) keeps the one known.
            type=str(environment.type) if environment.type is not None else old.type,
            # A key given alone (NOVU_SECRET_KEY, --api-key) is read-only where the
            # profile says its environment is.
            read_only=old.read_only or (filed is not None and filed.read_only),
        )
        self.keys = [new if k is old else k for k in self.keys]
        if self.persist and self.profile and not self.single and (self.unfiled or new != old):
            # The file is a cache of names here: a file that cannot be written now
            # leaves the key working as it is.
            with contextlib.suppress(ConfigError):
                file_learned(self.profile, new)
            self.unfiled = False
        return new

    async def learn(self, client: InboxClient, held: HeldKey) -> HeldKey:
        """`held` with its environment named by the service (`/v1/environments/me`, or the
        environments' list and an item of the key's); unchanged where it stays unknown."""
        found = await key_environment(client)
        return self.learned(held, found) if found is not None else held


async def key_environment(client: InboxClient) -> Environment | None:
    """The environment of the client's key, as far as the service tells it."""
    from inboxdesk.client import ApiError
    from inboxdesk.models import Environment
    from inboxdesk.scope import own_environment_id

    try:
        own = await client.own_environment()
    except ApiError:
        own = None
    if own is not None:
        return own
    own_id = await own_environment_id(client)
    if own_id is None:
        return None
    try:
        listed = await client.list_environments()
    except ApiError:
        listed = []  # not served: the id alone, its name unknown
    found = next((e for e in listed if e.id == own_id), None)
    return found or Environment.model_validate(
        {"_id": own_id, "name": "", "_organizationId": "", "identifier": ""}
    )


def read_only_reason(settings: Settings, held: HeldKey | None = None) -> str | None:
    """The setting that makes writes refused, as one would write it: the run's
    (`--read-only`, the profile's), else the environment acted in; None if writes are
    allowed. The app and the command line both ask here."""
    reason = settings.read_only_reason()
    if reason is None and held is not None and held.read_only:
        reason = f"the {held.label} environment's read_only"
    return reason


def file_learned(profile: str, held: HeldKey) -> None:
    """Write `held` into the profile's environments table, in place of its unfiled key."""
    config = ConfigFile.load(warn=False)
    if profile not in config.profiles():
        return
    config.put_key(profile, held.environment_id, held.name, held.type, held.api_key)
    config.save()
