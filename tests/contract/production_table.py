"""The conformance table: 138 requests and what production 3.19.0 answers to each, read
from its source at upstream commit fe53c481ac (the path is on each row), with the local
service's own answer beside it where the service chooses to differ, and why.

A row is data: the request (method, path, query, body), production's status and the
texts its answer must hold, the source path, and `differs` (the reason) with `ours`
(the status and texts the local service gives instead). test_production_table.py runs
every row against one local service. Rows are never written from the service's answers:
each comes from production's source.

Placeholders in paths, queries and bodies are filled in by the test: `{jane5}` is
jane's sixth message, `{joe0}` joe's first, `{note}` the notification of
`txn-delivered`, `{other_note}` one of the Other environment, `{in2h}` an ISO time two
hours ahead (`{in2h_bare}` without a zone, `{in30s}` thirty seconds ahead), `{ghost_id}`
a valid id that names nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

NO_BODY: Any = None

# Production's sources, relative to the upstream repository at fe53c481ac.
ACTIVITY_DTO = "apps/api/src/app/notifications/dtos/activities-request.dto.ts"
ACTIVITY_FEED = "apps/api/src/app/notifications/usecases/get-activity-feed/get-activity-feed.usecase.ts"  # noqa: E501
ACTIVITY_ONE = "apps/api/src/app/notifications/usecases/get-activity/get-activity.usecase.ts"
NOTIFICATION_REPO = "libs/dal/src/repositories/notification/notification.repository.ts"
PREFS_GET = "apps/api/src/app/subscribers-v2/usecases/get-subscriber-preferences/get-subscriber-preferences.usecase.ts"  # noqa: E501
PREFS_GET_DTO = "apps/api/src/app/subscribers-v2/dtos/get-subscriber-preferences-request.dto.ts"
PREFS_PATCH = "apps/api/src/app/subscribers-v2/usecases/update-subscriber-preferences/update-subscriber-preferences.usecase.ts"  # noqa: E501
PREFS_PATCH_DTO = "apps/api/src/app/subscribers-v2/dtos/patch-subscriber-preferences.dto.ts"
UPDATE_PREFS = "apps/api/src/app/inbox/usecases/update-preferences/update-preferences.usecase.ts"
SCHEDULE = "apps/api/src/app/shared/dtos/schedule.ts"
BULK_DTO = "apps/api/src/app/subscribers-v2/dtos/bulk-update-subscriber-preferences.dto.ts"
BULK_PREFS = "apps/api/src/app/inbox/usecases/bulk-update-preferences/bulk-update-preferences.usecase.ts"  # noqa: E501
LIST_DTO = "apps/api/src/app/subscribers-v2/dtos/get-subscriber-notifications-query.dto.ts"
CURSOR = "apps/api/src/app/shared/dtos/cursor-pagination-request.ts"
GET_NOTIFICATIONS = "apps/api/src/app/inbox/usecases/get-notifications/get-notifications.usecase.ts"
GET_SUBSCRIBER = "apps/api/src/app/subscribers/usecases/get-subscriber/get-subscriber.usecase.ts"
MESSAGE_REPO = "libs/dal/src/repositories/message/message.repository.ts"
COUNT_DTO = "apps/api/src/app/subscribers-v2/dtos/get-subscriber-notifications-count-query.dto.ts"
COUNT = "apps/api/src/app/inbox/usecases/notifications-count/notifications-count.usecase.ts"
MARK_ONE = "apps/api/src/app/inbox/usecases/mark-notification-as/mark-notification-as.usecase.ts"
SNOOZE = "apps/api/src/app/inbox/usecases/snooze-notification/snooze-notification.usecase.ts"
SNOOZE_DTO = "apps/api/src/app/subscribers-v2/dtos/snooze-subscriber-notification.dto.ts"
UNSNOOZE = "apps/api/src/app/inbox/usecases/unsnooze-notification/unsnooze-notification.usecase.ts"
CONTROLLER_V2 = "apps/api/src/app/subscribers-v2/subscribers.controller.ts"
SEEN_DTO = "apps/api/src/app/subscribers-v2/dtos/mark-subscriber-notifications-as-seen.dto.ts"
SEEN = "apps/api/src/app/inbox/usecases/mark-notifications-as-seen/mark-notifications-as-seen.usecase.ts"  # noqa: E501
BULK_OPS_DTO = "apps/api/src/app/subscribers-v2/dtos/update-all-subscriber-notifications.dto.ts"
UPDATE_ALL = "apps/api/src/app/inbox/usecases/update-all-notifications/update-all-notifications.usecase.ts"  # noqa: E501
V1_CONTROLLER = "apps/api/src/app/subscribers/subscribersV1.controller.ts"
MARK_AS_DTO = "apps/api/src/app/widgets/dtos/mark-as-request.dto.ts"
INTEGRATIONS = "apps/api/src/app/integrations/integrations.controller.ts"
SET_PRIMARY = "apps/api/src/app/integrations/usecases/set-integration-as-primary/set-integration-as-primary.usecase.ts"  # noqa: E501
ENVIRONMENTS = "apps/api/src/app/environments-v1/environments-v1.controller.ts"
EXCEPTION_FILTER = "apps/api/src/exception-filter.ts"

FEED = "/v1/notifications"
PREFS = "/v2/subscribers/jane/preferences"
GHOST_PREFS = "/v2/subscribers/ghost/preferences"
INBOX = "/v2/subscribers/jane/notifications"
GHOST_INBOX = "/v2/subscribers/ghost/notifications"
JOE_INBOX = "/v2/subscribers/joe/notifications"
MARK_AS = "/v1/subscribers/jane/messages/mark-as"
EVERY = {c: True for c in ("email", "sms", "in_app", "chat", "push", "tool")}
TWELVE_HOURS = "must be in 12-hour format (e.g., 09:00 AM or 9:00 AM)"


@dataclass(frozen=True)
class Row:
    id: int
    method: str
    path: str
    status: int  # production's
    says: tuple[str, ...]  # texts production's answer holds (compact JSON)
    source: str
    query: dict[str, Any] = field(default_factory=dict)
    body: Any = NO_BODY
    differs: str = ""  # why the local service answers otherwise
    ours: tuple[int, tuple[str, ...]] | None = None  # its status and texts, then

    @property
    def expected(self) -> tuple[int, tuple[str, ...]]:
        return self.ours if self.differs and self.ours is not None else (self.status, self.says)


def r(
    id: int,
    method: str,
    path: str,
    status: int,
    says: tuple[str, ...] | str = (),
    source: str = "",
    **rest: Any,
) -> Row:
    return Row(id, method, path, status, (says,) if isinstance(says, str) else says, source, **rest)


ROWS: list[Row] = [
    # 1.1 The activity feed and one notification.
    r(1, "GET", FEED, 422, ("limit must not be less than 1", '"general"'), ACTIVITY_DTO,
      query={"limit": "0"}),
    r(2, "GET", FEED, 422, "limit must not be greater than 50", ACTIVITY_DTO,
      query={"limit": "51"}),
    r(3, "GET", FEED, 200, '"hasMore":', ACTIVITY_FEED, query={"limit": "50"}),
    r(4, "GET", FEED, 422, "page must not be less than 0", ACTIVITY_DTO, query={"page": "-1"}),
    r(5, "GET", FEED, 422, ("limit must not be greater than 50", "limit must not be less than 1",
      "limit must be an integer number"), ACTIVITY_DTO, query={"limit": "abc"}),
    r(6, "GET", FEED, 422, "limit must be an integer number", ACTIVITY_DTO, query={"limit": "2.5"}),
    r(7, "GET", FEED, 200, '"page":1', ACTIVITY_DTO, query={"page": "1.0", "limit": "10.0"}),
    r(8, "GET", FEED, 400, "Invalid date format for parameter 'after': notadate. Please provide a "
      "valid ISO 8601 date string.", ACTIVITY_FEED, query={"after": "notadate"}),
    r(9, "GET", FEED, 200, '"data":', ACTIVITY_FEED, query={"after": "Nov 28 2026"},
      differs="We read ISO 8601 dates only: JavaScript's Date reads many loose forms "
      "('2026', '0', 'Nov 28 2026') whose meaning depends on the engine.",
      ours=(400, ("Invalid date format for parameter 'after'",))),
    r(10, "GET", FEED, 400, "Invalid date range: start date (after) must be earlier than end date "
      "(before)", ACTIVITY_FEED, query={"after": "2026-11-02", "before": "2026-11-01"}),
    r(11, "GET", FEED, 200, '"data":', ACTIVITY_FEED, query={"after": "2020-01-01"}),
    r(12, "GET", FEED, 200, ('"page":0', '"hasMore":false', '"data":[]'), ACTIVITY_FEED,
      query={"subscriberIds": "nobody", "page": "3"}),
    r(13, "GET", FEED, 200, '"data":[]', NOTIFICATION_REPO, query={"emails": "JANE@EXAMPLE.TEST"}),
    r(14, "GET", FEED, 422, "Validation failed for GetActivityFeedCommand: channels: each value in "
      "channels must be one of the following values: in_app, email, sms, chat, push, tool",
      ACTIVITY_FEED, query={"channels": "fax"}),
    r(15, "GET", FEED, 422, "each value in templates must be a mongodb id", ACTIVITY_FEED,
      query={"templates": "notanid"}),
    r(16, "GET", FEED, 422, '"messages":[""]', ACTIVITY_DTO, query={"severity": "urgent"}),
    r(17, "GET", FEED, 200, '"transactionId":"txn-11"', NOTIFICATION_REPO,
      query={"contextKeys": ""}),
    r(18, "GET", FEED, 200, '"transactionId":"txn-delivered"', NOTIFICATION_REPO,
      query={"contextKeys": ["tenant:acme", "a:b"]}),
    r(19, "GET", FEED, 200, '"data":[]', NOTIFICATION_REPO, query={"topicKey": "x"}),
    r(20, "GET", FEED, 200, '"transactionId":"txn-joe"', ACTIVITY_FEED, query={"search": "joe"}),
    r(21, "GET", FEED, 200, '"data":', ACTIVITY_DTO, query={"unknownParam": "1"}),
    r(22, "GET", FEED, 200, ('"txn-delivered"', '"txn-11"'), NOTIFICATION_REPO,
      query={"transactionId": ["txn-delivered", "txn-11"]}),
    r(23, "GET", FEED, 200, ('"page":1000', '"hasMore":false'), ACTIVITY_FEED,
      query={"page": "1000"}),
    r(24, "GET", f"{FEED}/{{note}}", 200, ('"providerId":"novu"', '"_parentId":null'),
      NOTIFICATION_REPO),
    r(25, "GET", FEED, 200, '"to":{"subscriberId":"jane"}', ACTIVITY_FEED,
      query={"transactionId": "txn-delivered"}),
    r(26, "GET", f"{FEED}/{{other_note}}", 404, "Notification not found", ACTIVITY_ONE),
    r(27, "GET", f"{FEED}/not-an-id", 422, "Validation failed for GetActivityCommand: "
      "notificationId: notificationId must be a mongodb id", ACTIVITY_ONE),
    r(28, "GET", f"{FEED}/{{note_upper}}", 200, '"transactionId":"txn-delivered"', ACTIVITY_ONE),
    # 1.2 A subscriber's preferences.
    r(29, "GET", GHOST_PREFS, 404, "Subscriber with id: ghost not found", PREFS_GET),
    r(30, "GET", PREFS, 422, "criticality must be one of the following values: critical, "
      "nonCritical, all", PREFS_GET_DTO, query={"criticality": "bogus"}),
    r(31, "GET", PREFS, 200, ('"global":', '"workflows":'), PREFS_GET,
      query={"criticality": "all"}),
    r(32, "GET", PREFS, 200, '"updatedAt":', PREFS_GET),
    r(33, "PATCH", GHOST_PREFS, 404, "Subscriber with id: ghost is not found", UPDATE_PREFS,
      body={"channels": {"email": True}}),
    r(34, "PATCH", PREFS, 422, "Validation failed for UpdatePreferencesCommand: email: email must "
      "be a boolean value", UPDATE_PREFS, body={"channels": {"email": "false"}}),
    r(35, "PATCH", PREFS, 200, '"global":', UPDATE_PREFS, body={"channels": {"email": None}}),
    r(36, "PATCH", PREFS, 404, ("Workflow cannot be found", '"workflowId":"nope"'), PREFS_PATCH,
      body={"workflowId": "nope", "channels": {"email": "x"}}),
    r(37, "PATCH", PREFS, 400, "Critical workflow with id: ", UPDATE_PREFS,
      body={"workflowId": "security-alert", "channels": {"email": False}}),
    r(38, "PATCH", GHOST_PREFS, 404, "Subscriber with id: ghost is not found", UPDATE_PREFS,
      body={"workflowId": "security-alert", "channels": {"email": False}}),
    r(39, "PATCH", PREFS, 422, "Validation failed for UpdateSubscriberPreferencesCommand: "
      "workflowIdOrInternalId: workflowIdOrInternalId must be a string", PREFS_PATCH,
      body={"workflowId": 123}),
    r(40, "PATCH", PREFS, 200, '"global":', UPDATE_PREFS,
      body={"channels": {"fax": True}, "extra": 1}),
    r(41, "PATCH", PREFS, 200, '"global":', UPDATE_PREFS, body={"context": {"tenant": "acme"}}),
    r(42, "PATCH", PREFS, 200, '"global":', UPDATE_PREFS, body={}),
    r(43, "PATCH", PREFS, 200, '"global":', UPDATE_PREFS, body={"channels": "all"}),
    r(44, "PATCH", PREFS, 200, '"schedule":{"isEnabled":true', PREFS_PATCH,
      body={"schedule": {"isEnabled": True, "weeklySchedule": {"monday": {"isEnabled": True,
            "hours": [{"start": "09:00 AM", "end": "05:00 PM"}]}}}}),
    r(45, "PATCH", PREFS, 422, "schedule.isEnabled must be a boolean value", SCHEDULE,
      body={"schedule": {"isEnabled": "yes"}}),
    r(46, "PATCH", PREFS, 422, f"hours.0.start {TWELVE_HOURS}", SCHEDULE,
      body={"schedule": {"isEnabled": True, "weeklySchedule": {"monday": {"isEnabled": True,
            "hours": [{"start": "9am", "end": "05:00 PM"}]}}}}),
    r(47, "PATCH", PREFS, 422, "monday.isEnabled must be a boolean value", SCHEDULE,
      body={"schedule": {"isEnabled": True, "weeklySchedule": {"monday": {"isEnabled": "x",
            "hours": "all day"}}}}),
    r(48, "PATCH", PREFS, 422, "weeklySchedule must contain at least one day configuration when "
      "isEnabled is true", SCHEDULE, body={"schedule": {"isEnabled": True, "weeklySchedule": {}}}),
    r(49, "PATCH", PREFS, 200, '"global":', SCHEDULE,
      body={"schedule": {"isEnabled": False, "weeklySchedule": {"funday": {"isEnabled": True}}}}),
    r(50, "PATCH", PREFS, 200, '"workflows":', PREFS_PATCH,
      body={"workflowId": "order-shipped", "schedule": {"isEnabled": False}}),
    # 1.3 Bulk preferences.
    r(51, "PATCH", f"{PREFS}/bulk", 422, "preferences must contain no more than 100 elements",
      BULK_DTO, body={"preferences": [{"workflowId": "order-shipped", "channels": EVERY}] * 101}),
    r(52, "PATCH", f"{PREFS}/bulk", 200, '"level":"template"', BULK_PREFS,
      body={"preferences": [{"workflowId": "order-shipped", "channels": EVERY}] * 100}),
    r(53, "PATCH", f"{PREFS}/bulk", 400, "No preferences provided for bulk update", BULK_PREFS,
      body={"preferences": []}),
    r(54, "PATCH", f"{GHOST_PREFS}/bulk", 404, "Subscriber with id: ghost is not found",
      BULK_PREFS, body={"preferences": []}),
    r(55, "PATCH", f"{GHOST_PREFS}/bulk", 404, "Subscriber with id: ghost is not found",
      BULK_PREFS, body={"preferences": [{"workflowId": "nope", "channels": {}}]}),
    r(56, "PATCH", f"{PREFS}/bulk", 404, "Workflows with ids: nope1, nope2 not found", BULK_PREFS,
      body={"preferences": [{"workflowId": "nope1", "channels": {}},
                            {"workflowId": "nope2", "channels": {}}]}),
    r(57, "PATCH", f"{PREFS}/bulk", 400, "Critical workflows with ids: ", BULK_PREFS,
      body={"preferences": [{"workflowId": "security-alert", "channels": {"email": False}}]}),
    r(58, "PATCH", f"{PREFS}/bulk", 200, '"identifier":"order-shipped"', BULK_PREFS,
      body={"preferences": [{"workflowId": "order-shipped", "channels": {"email": True}},
                            {"workflowId": "order-shipped", "channels": {"email": False}}]}),
    r(59, "PATCH", f"{PREFS}/bulk", 422, "Validation failed for UpdatePreferencesCommand: email:",
      BULK_PREFS, body={"preferences": [{"workflowId": "order-shipped",
                                         "channels": {"email": "no"}}]}),
    r(60, "PATCH", f"{PREFS}/bulk", 422, ("preferences.0.workflowId should not be null or "
      "undefined", "preferences.0.workflowId must be a string"), BULK_DTO,
      body={"preferences": [{"channels": {}}]}),
    r(61, "PATCH", f"{PREFS}/bulk", 200, '"identifier":"order-shipped"', BULK_PREFS,
      body={"preferences": [{"workflowId": "order-shipped"}]}),
    r(62, "PATCH", f"{PREFS}/bulk", 422, ("preferences should not be null or undefined",
      "preferences must be an array"), BULK_DTO, body={}),
    r(63, "PATCH", f"{PREFS}/bulk", 200, '"level":"template"', BULK_PREFS,
      body={"preferences": [{"workflowId": "order-shipped", "channels": {"email": True},
                             "context": {"tenant": "acme"}}]}),
    r(64, "PATCH", f"{PREFS}/bulk", 200, ('"level":"template"', '"critical":false',
      '"severity":'), BULK_PREFS,
      body={"preferences": [{"workflowId": "order-shipped", "channels": {"in_app": True}}]}),
    # 1.4 The v2 list and its count.
    r(65, "GET", GHOST_INBOX, 404, "Subscriber 'ghost' was not found", GET_SUBSCRIBER),
    r(66, "GET", INBOX, 200, '"filter":{"read":false}', GET_NOTIFICATIONS, query={"read": "1"}),
    r(67, "GET", INBOX, 200, '"filter":{"read":false}', GET_NOTIFICATIONS, query={"read": "maybe"}),
    r(68, "GET", INBOX, 400, "Filtering for unread and archived notifications is not supported.",
      GET_NOTIFICATIONS, query={"read": "false", "archived": "true"}),
    r(69, "GET", INBOX, 422, ("limit must not be less than 1", '"general"'), CURSOR,
      query={"limit": "0"}),
    r(70, "GET", INBOX, 422, "The after cursor must be a valid MongoDB ObjectId", CURSOR,
      query={"after": "notanid"}),
    r(71, "GET", INBOX, 200, '"hasMore":', MESSAGE_REPO,
      query={"after": "{jane11}", "offset": "5"}),
    r(72, "GET", INBOX, 200, '"hasMore":true', MESSAGE_REPO, query={"limit": "11"}),
    r(73, "GET", INBOX, 500, "errorId", MESSAGE_REPO, query={"after": "{ghost_id}"},
      differs="Production's unknown cursor is an uncaught DalException (a 500); we answer an "
      "empty page: nothing answers 500 for a caller's input.", ours=(200, ('"data":[]',))),
    r(74, "GET", INBOX, 200, '"data":[{', MESSAGE_REPO, query={"after": "{joe2}"}),
    r(75, "GET", INBOX, 422, '"general"', LIST_DTO, query={"severity": "urgent"}),
    r(76, "GET", INBOX, 200, '"filter":{"severity":["high"]}', MESSAGE_REPO,
      query={"severity": "high"}),
    r(77, "GET", INBOX, 400, "Invalid JSON format for data parameter", GET_NOTIFICATIONS,
      query={"data": "notjson"}),
    r(78, "GET", INBOX, 422, "createdGte must be an integer number", LIST_DTO,
      query={"createdGte": "abc"}),
    r(79, "GET", INBOX, 200, ('"workflow":{"id":', '"identifier":"order-shipped"'),
      GET_NOTIFICATIONS, query={"limit": "1"}),
    r(80, "GET", f"{GHOST_INBOX}/count", 400, "Subscriber ghost doesn't exist in environment",
      COUNT, query={"filters": '[{"read":false}]'}),
    r(81, "GET", f"{INBOX}/count", 400, "Invalid filters, the JSON object should be provided.",
      COUNT, query={"filters": "notjson"}),
    r(82, "GET", f"{INBOX}/count", 422, "filters should not be null or undefined", COUNT_DTO),
    r(83, "GET", f"{INBOX}/count", 422, "filters must be an array", COUNT_DTO,
      query={"filters": '{"read":false}'}),
    r(84, "GET", f"{INBOX}/count", 422, "filters.0.read must be a boolean value", COUNT_DTO,
      query={"filters": '[{"read":"false"}]'}),
    r(85, "GET", f"{INBOX}/count", 400, "Filtering for unread and archived notifications is not "
      "supported.", COUNT, query={"filters": '[{"read":false,"archived":true}]'}),
    r(86, "GET", f"{INBOX}/count", 200, '"count":', COUNT, query={"filters": "[{}]"}),
    r(87, "GET", f"{INBOX}/count", 200, '"count":0', MESSAGE_REPO,
      query={"filters": '[{"severity":"high"}]'}),
    # 1.5 One notification's actions.
    r(88, "PATCH", f"{INBOX}/{{ghost_id}}/read", 404, "Notification with id: {ghost_id} is not "
      "found.", MARK_ONE),
    r(89, "PATCH", f"{INBOX}/notanid/read", 422, "Validation failed for MarkNotificationAsCommand: "
      "notificationId:", MARK_ONE),
    r(90, "PATCH", f"{GHOST_INBOX}/{{jane1}}/archive", 404, "Subscriber 'ghost' was not found",
      GET_SUBSCRIBER),
    r(91, "PATCH", f"{INBOX}/{{joe0}}/read", 404, "is not found.", MARK_ONE),
    r(92, "PATCH", f"{INBOX}/{{jane5}}/read", 200, ('"isRead":true', '"isSeen":true',
      '"firstSeenAt":"'), MESSAGE_REPO),
    r(93, "PATCH", f"{INBOX}/{{jane7}}/archive", 200, ('"isRead":true', '"isSeen":true',
      '"isArchived":true'), MESSAGE_REPO),
    r(94, "PATCH", f"{INBOX}/{{jane9}}/unarchive", 200, ('"isRead":true', '"isSeen":true',
      '"isArchived":false'), MESSAGE_REPO),
    r(95, "PATCH", f"{INBOX}/{{jane11}}/unread", 200, ('"isRead":false', '"isSeen":true',
      '"isArchived":false'), MESSAGE_REPO),
    r(96, "PATCH", f"{INBOX}/{{jane10}}/snooze", 200, ('"isSnoozed":true', '"isSeen":true',
      '"isArchived":false'), SNOOZE, body={"snoozeUntil": "{in2h}"}),
    r(97, "PATCH", f"{INBOX}/{{jane1}}/snooze", 422, "Snooze time must be at least 60 seconds in "
      "the future", SNOOZE_DTO, body={"snoozeUntil": "{in30s}"}),
    r(98, "PATCH", f"{INBOX}/{{jane1}}/snooze", 422, ("snoozeUntil must be a Date instance",
      "Snooze time must be at least 60 seconds in the future"), SNOOZE_DTO,
      body={"snoozeUntil": "notadate"}),
    r(99, "PATCH", f"{INBOX}/{{jane2}}/snooze", 200, '"isSnoozed":true', SNOOZE_DTO,
      body={"snoozeUntil": "{in2h_bare}"}),
    r(100, "PATCH", f"{INBOX}/{{jane3}}/snooze", 200, '"isSnoozed":true', SNOOZE_DTO,
      body={"snoozeUntil": 1900000000000}),
    r(101, "PATCH", f"{INBOX}/{{ghost_id}}/snooze", 404, "Notification id: '{ghost_id}' not found",
      SNOOZE, body={"snoozeUntil": "{in2h}"}),
    r(102, "PATCH", f"{INBOX}/notanid/snooze", 422, "Validation failed for "
      "SnoozeNotificationCommand: notificationId:", SNOOZE, body={"snoozeUntil": "{in2h}"}),
    r(103, "PATCH", f"{INBOX}/{{jane4}}/snooze", 402, "Snooze Duration Limit Exceeded", SNOOZE,
      body={"snoozeUntil": "{in400d}"},
      differs="The local service has no plan, so no plan's snooze limit (production Cloud's "
      "402 for a Free or Pro plan).", ours=(200, ('"isSnoozed":true',))),
    r(104, "PATCH", f"{INBOX}/{{ghost_id}}/unsnooze", 404, "Could not find a snoozed notification "
      "with id '{ghost_id}'. The notification may not exist or may not be in a snoozed state.",
      UNSNOOZE),
    r(105, "PATCH", f"{INBOX}/{{jane8}}/unsnooze", 404, "Could not find a snoozed notification",
      UNSNOOZE),
    r(106, "PATCH", f"{INBOX}/{{jane6}}/unsnooze", 200, ('"isSnoozed":false', '"isSeen":true',
      '"isArchived":false'), UNSNOOZE),
    r(107, "DELETE", f"{INBOX}/{{jane0}}", 204, (), CONTROLLER_V2,
      differs="Deleting one notification and its action routes are outside inboxdesk's slice: "
      "it offers no delete, since nothing could undo one.", ours=(404, ("Cannot DELETE",))),
    # 1.6 Seen and the bulk operations.
    r(108, "POST", f"{INBOX}/seen", 422, "each value in notificationIds must be a mongodb id",
      SEEN_DTO, body={"notificationIds": ["notanid"]}),
    r(109, "POST", f"{GHOST_INBOX}/seen", 204, (), SEEN, body={"notificationIds": []}),
    r(110, "POST", f"{GHOST_INBOX}/seen", 404, "Subscriber 'ghost' was not found", GET_SUBSCRIBER,
      body={}),
    r(111, "POST", f"{INBOX}/seen", 204, (), MESSAGE_REPO, body={"tags": ["no-such-tag"]}),
    r(112, "POST", f"{GHOST_INBOX}/read", 404, "Subscriber 'ghost' was not found", UPDATE_ALL,
      body={}),
    r(113, "POST", f"{JOE_INBOX}/read", 400, "Invalid JSON format for data parameter", UPDATE_ALL,
      body={"data": "notjson"}),
    r(114, "POST", f"{JOE_INBOX}/read", 422, "data must be a string", BULK_OPS_DTO,
      body={"data": {"a": 1}}),
    r(115, "POST", f"{JOE_INBOX}/read", 422, "tags must be string[] (OR)", BULK_OPS_DTO,
      body={"tags": "x"}),
    r(116, "POST", f"{JOE_INBOX}/read", 204, (), BULK_OPS_DTO,
      body={"tags": {"and": [{"or": ["a", "b"]}]}}),
    r(117, "POST", f"{JOE_INBOX}/archive", 204, (), UPDATE_ALL, body={}),
    r(118, "POST", f"{JOE_INBOX}/read-archive", 204, (), UPDATE_ALL, body={"unknown": 1}),
    # 1.7 v1 mark-as, integrations, environments.
    r(119, "POST", "/v1/subscribers/ghost/messages/mark-as", 404, "Subscriber ghost not found",
      V1_CONTROLLER, body={"messageId": "{jane0}", "markAs": "read"}),
    r(120, "POST", MARK_AS, 422, "messageId must be a valid MongoDB ObjectId or an array of valid "
      "MongoDB ObjectIds", MARK_AS_DTO, body={"messageId": [], "markAs": "read"}),
    r(121, "POST", MARK_AS, 201, '"data":[]', V1_CONTROLLER,
      body={"messageId": "{ghost_id}", "markAs": "read"}),
    r(122, "POST", MARK_AS, 422, "markAs", MARK_AS_DTO, body={"messageId": "{jane0}",
                                                           "markAs": "bogus"}),
    r(123, "POST", MARK_AS, 201, '"data":[{', V1_CONTROLLER,
      body={"messageId": "{jane0}", "markAs": "seen", "extra": 1}),
    r(124, "GET", "/v1/integrations", 200, '"credentials":', INTEGRATIONS),
    r(125, "POST", "/v1/integrations/notanid/set-primary", 422, "Validation failed for "
      "SetIntegrationAsPrimaryCommand: integrationId:", SET_PRIMARY),
    r(126, "POST", "/v1/integrations/{ghost_id}/set-primary", 404, "Integration with id",
      SET_PRIMARY),
    r(127, "POST", "/v1/integrations/65e000000000000000000001/set-primary", 400,
      "Channel in_app does not support primary", SET_PRIMARY),
    r(128, "POST", "/v1/integrations/65e000000000000000000003/set-primary", 201, '"primary":true',
      INTEGRATIONS, differs="Production's controller has no @HttpCode and answers 201; we answer "
      "200 as its document and both official SDKs expect (the client accepts both).",
      ours=(200, ('"primary":true',))),
    r(129, "GET", "/v1/environments", 200, '"slug":"dev_env_', ENVIRONMENTS,
      differs="The slug stays the readable one the typed confirmation and --environment match; "
      "production's is built from the name and the id.", ours=(200, ('"slug":',))),
    r(130, "GET", "/v1/environments/me", 200, '"_id":', ENVIRONMENTS,
      differs="/me keeps the slug beside the name, for the same confirmation; production leaves "
      "it out.", ours=(200, ('"slug":',))),
    # 1.8 Across routes.
    r(131, "PATCH", PREFS, 200, '"global":', UPDATE_PREFS, body={"unknownField": True}),
    r(132, "GET", INBOX, 200, ('"isRead":', '"channelType":"in_app"'), GET_NOTIFICATIONS),
    r(133, "GET", PREFS, 200, ('"enabled":true', '"overrides":'), PREFS_GET),
    r(134, "GET", FEED, 200, ('"jobs":[{', '"providerId":'), NOTIFICATION_REPO,
      query={"transactionId": "txn-delivered"}),
    r(135, "PATCH", f"{INBOX}/{{ghost_id}}/archive", 404, "Notification with id: {ghost_id} is not "
      "found.", MARK_ONE),
    r(136, "GET", f"{INBOX}/count", 400, "not supported", COUNT,
      query={"filters": '[{"read":false,"archived":true}]'}),
    r(137, "GET", FEED, 422, '"ctx":{}', EXCEPTION_FILTER, query={"limit": "0"},
      differs="G1: our error bodies carry no `ctx`; every client reads statusCode, message and "
      "errors, which match.", ours=(422, ('"statusCode":422', '"errors":'))),
    r(138, "GET", FEED, 400, '"message":"Invalid date range', EXCEPTION_FILTER,
      query={"after": "2026-11-02", "before": "2026-11-01"},
      differs="G2: our 4xx bodies always carry `error` (the status phrase), where production's "
      "HttpException('text') has none.", ours=(400, ('"error":"Bad Request"',))),
]
