"""Every closed value list of the API, defined once for server, client and app."""

from __future__ import annotations

from enum import StrEnum


class Channel(StrEnum):
    IN_APP = "in_app"
    EMAIL = "email"
    SMS = "sms"
    CHAT = "chat"
    PUSH = "push"
    # Incident tools (PagerDuty, Opsgenie, Grafana, a webhook): a step is sent through
    # every active tool integration, so the channel has no primary.
    TOOL = "tool"


# Only these channels have a primary integration.
PRIMARY_CHANNELS: frozenset[Channel] = frozenset({Channel.EMAIL, Channel.SMS})


class MarkAs(StrEnum):
    READ = "read"
    SEEN = "seen"
    UNREAD = "unread"
    UNSEEN = "unseen"


class MessageStatus(StrEnum):
    SENT = "sent"
    ERROR = "error"
    WARNING = "warning"


class ActionStatus(StrEnum):
    PENDING = "pending"
    DONE = "done"


class ButtonType(StrEnum):
    PRIMARY = "primary"
    SECONDARY = "secondary"


class CtaType(StrEnum):
    REDIRECT = "redirect"


class EmailBlockType(StrEnum):
    BUTTON = "button"
    TEXT = "text"


class TextAlign(StrEnum):
    CENTER = "center"
    LEFT = "left"
    RIGHT = "right"


class FilterType(StrEnum):
    BOOLEAN = "BOOLEAN"
    TEXT = "TEXT"
    DATE = "DATE"
    NUMBER = "NUMBER"
    STATEMENT = "STATEMENT"
    LIST = "LIST"
    MULTI_LIST = "MULTI_LIST"
    GROUP = "GROUP"


class FilterJoin(StrEnum):
    AND = "AND"
    OR = "OR"


class FilterOperator(StrEnum):
    LARGER = "LARGER"
    SMALLER = "SMALLER"
    LARGER_EQUAL = "LARGER_EQUAL"
    SMALLER_EQUAL = "SMALLER_EQUAL"
    EQUAL = "EQUAL"
    NOT_EQUAL = "NOT_EQUAL"
    ALL_IN = "ALL_IN"
    ANY_IN = "ANY_IN"
    NOT_IN = "NOT_IN"
    BETWEEN = "BETWEEN"
    NOT_BETWEEN = "NOT_BETWEEN"
    LIKE = "LIKE"
    NOT_LIKE = "NOT_LIKE"
    IN = "IN"


class FilterOn(StrEnum):
    SUBSCRIBER = "subscriber"
    PAYLOAD = "payload"
    # Stored by production's older dashboards on integration conditions.
    TENANT = "tenant"


class TimeUnit(StrEnum):
    SECONDS = "seconds"
    MINUTES = "minutes"
    HOURS = "hours"
    DAYS = "days"
    WEEKS = "weeks"
    MONTHS = "months"


class DigestType(StrEnum):
    REGULAR = "regular"
    BACKOFF = "backoff"


class DigestTimedType(StrEnum):
    TIMED = "timed"


class DelayType(StrEnum):
    REGULAR = "regular"


class DelayScheduledType(StrEnum):
    SCHEDULED = "scheduled"


class WeekDay(StrEnum):
    MONDAY = "monday"
    TUESDAY = "tuesday"
    WEDNESDAY = "wednesday"
    THURSDAY = "thursday"
    FRIDAY = "friday"
    SATURDAY = "saturday"
    SUNDAY = "sunday"


class Ordinal(StrEnum):
    FIRST = "1"
    SECOND = "2"
    THIRD = "3"
    FOURTH = "4"
    FIFTH = "5"
    LAST = "last"


class OrdinalValue(StrEnum):
    DAY = "day"
    WEEKDAY = "weekday"
    WEEKEND = "weekend"
    SUNDAY = "sunday"
    MONDAY = "monday"
    TUESDAY = "tuesday"
    WEDNESDAY = "wednesday"
    THURSDAY = "thursday"
    FRIDAY = "friday"
    SATURDAY = "saturday"


class MonthlyType(StrEnum):
    EACH = "each"
    ON = "on"


class TriggerType(StrEnum):
    EVENT = "event"


class Region(StrEnum):
    """Where a profile points: a production region or the local service."""

    US = "us"
    EU = "eu"
    LOCAL = "local"


class ActorType(StrEnum):
    NONE = "none"
    USER = "user"
    SYSTEM_ICON = "system_icon"
    SYSTEM_CUSTOM = "system_custom"


class IntegrationKind(StrEnum):
    """Delivery integrations have a channel; agent-runtime ones have none."""

    DELIVERY = "delivery"
    AGENT = "agent"


class EnvironmentType(StrEnum):
    """What production says an environment is for; older ones have none (null)."""

    DEV = "dev"
    PROD = "prod"


class StepType(StrEnum):
    """What a job of a notification does: a channel's step, or a workflow action."""

    IN_APP = "in_app"
    EMAIL = "email"
    SMS = "sms"
    CHAT = "chat"
    PUSH = "push"
    TOOL = "tool"
    DIGEST = "digest"
    TRIGGER = "trigger"
    DELAY = "delay"
    THROTTLE = "throttle"
    CUSTOM = "custom"
    HTTP_REQUEST = "http_request"


class JobStatus(StrEnum):
    PENDING = "pending"
    QUEUED = "queued"
    RUNNING = "running"
    COMPLETED = "completed"
    FAILED = "failed"
    DELAYED = "delayed"
    CANCELED = "canceled"
    MERGED = "merged"
    SKIPPED = "skipped"


class DetailStatus(StrEnum):
    """The status of one execution detail (capitalised on the wire, as production's)."""

    SUCCESS = "Success"
    WARNING = "Warning"
    FAILED = "Failed"
    PENDING = "Pending"
    QUEUED = "Queued"
    READ_CONFIRMATION = "ReadConfirmation"


class DetailSource(StrEnum):
    CREDENTIALS = "Credentials"
    INTERNAL = "Internal"
    PAYLOAD = "Payload"
    WEBHOOK = "Webhook"


class Severity(StrEnum):
    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"
    NONE = "none"
