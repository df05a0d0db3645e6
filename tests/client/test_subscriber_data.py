"""A subscriber's own data against the local service: PATCH's fields and refusals,
the credentials PUT/PATCH/DELETE with production's surprises, and the client's words."""

from __future__ import annotations

import pytest

from inboxdesk.client import ApiError, ClientOptions, InboxClient, NotFoundError, RetryPolicy
from inboxdesk.client.errors import BadRequestError, ValidationError
from tests.conftest import STAGING_KEY, ServiceFactory
from tests.production_shaped import production_shaped
from tests.subscriber_fixture import FCM_NEW, SLACK, subscriber_fixture

FAST = ClientOptions(timeout=5, retry=RetryPolicy(base=0.01, cap=0.02, deadline=1))


async def test_patch_writes_only_what_is_given_and_null_clears(
    make_service: ServiceFactory,
) -> None:
    service = make_service(subscriber_fixture())
    async with InboxClient(service.url, STAGING_KEY, FAST) as client:
        after = await client.update_subscriber(
            "ada.lovelace", {"phone": "+14155550100", "locale": None, "unknown": 1}
        )
        assert after.phone == "+14155550100" and after.locale is None
        assert after.email == "ada@example.com" and after.timezone == "Europe/London"
        # `""` is stored on plain strings, refused on email, locale and timezone.
        assert (await client.update_subscriber("ada.lovelace", {"lastName": ""})).last_name == ""
        for name, value, words in (
            ("email", "", "email must be an email"),
            ("email", "ada@localhost", "email must be an email"),
            ("timezone", "Mars/Olympus", "timezone must be a valid IANA time-zone"),
            ("locale", "not a locale", "locale must be locale"),
            ("data", [1], "data must be an object"),
        ):
            with pytest.raises(ValidationError, match=words) as refused:
                await client.update_subscriber("ada.lovelace", {name: value})
            assert refused.value.status == 422
        with pytest.raises(NotFoundError, match="Subscriber nobody was not found"):
            await client.update_subscriber("nobody", {"phone": "+1"})
        again = await client.get_subscriber("ada.lovelace")
        assert again.phone == "+14155550100" and again.email == "ada@example.com"


async def test_credentials_put_patch_and_delete_as_production(
    make_service: ServiceFactory,
) -> None:
    service = make_service(subscriber_fixture())
    http = service.http()
    path = "/v1/subscribers/ada.lovelace/credentials"

    def fcm_tokens() -> list[str]:
        doc = http.get("/v2/subscribers/ada.lovelace").json()["data"]
        return next(c for c in doc["channels"] if c["providerId"] == "fcm")["credentials"][
            "deviceTokens"
        ]

    # PATCH appends (de-duplicated, order kept); PUT replaces.
    body = {"providerId": "fcm", "credentials": {"deviceTokens": ["tok-a2", "tok-b"]}}
    assert http.patch(path, json=body).status_code == 200
    assert fcm_tokens() == ["tok-a1", "tok-a2", "tok-b"]
    # The surprise: a write that names no tokens empties the stored ones.
    wipe = {"providerId": "fcm", "credentials": {"alertUid": "x"}}
    assert http.put(path, json=wipe).status_code == 200
    assert fcm_tokens() == []
    refused = http.put(path, json={"providerId": "smtp", "credentials": []})
    assert refused.status_code == 422
    assert refused.json()["errors"]["general"]["messages"] == [
        "providerId must be a valid provider ID",
        "credentials must be an object",
    ]
    unknown = http.put("/v1/subscribers/nobody/credentials", json=body)
    assert (unknown.status_code, unknown.json()["message"]) == (
        400,
        "SubscriberId: nobody not found",
    )
    none = http.put(path, json={"providerId": "apns", "credentials": {}})
    assert (
        none.status_code == 400 and "do not have active apns integration" in none.json()["message"]
    )
    many = {"providerId": "fcm", "credentials": {"deviceTokens": [f"t{n}" for n in range(101)]}}
    over = http.put(path, json=many)
    assert over.status_code == 400 and over.json()["currentCount"] == 101
    assert http.delete("/v1/subscribers/ada.lovelace/credentials/slack").status_code == 204
    assert http.delete("/v1/subscribers/ada.lovelace/credentials/none").status_code == 204
    gone = http.delete("/v1/subscribers/nobody/credentials/slack")
    assert gone.status_code == 404
    assert gone.json()["message"] == "Subscriber 'nobody' was not found"
    doc = http.get("/v2/subscribers/ada.lovelace").json()["data"]
    assert [c["providerId"] for c in doc["channels"]] == ["fcm"]


async def test_the_client_sends_the_whole_token_list_and_says_refusals_in_words(
    make_service: ServiceFactory,
) -> None:
    service = make_service(subscriber_fixture())
    async with InboxClient(service.url, STAGING_KEY, FAST) as client:
        after = await client.set_credentials(
            "ada.lovelace", "slack", [], {"webhookUrl": "https://hooks.slack.test/new"}
        )
        slack = next(c for c in after.channels or [] if c.provider_id == "slack")
        assert slack.integration_id == SLACK
        assert slack.credentials.webhook_url == "https://hooks.slack.test/new"
        after = await client.set_credentials("ada.lovelace", "fcm", ["tok-a1", "tok-a2", "tok-c"])
        fcm = next(c for c in after.channels or [] if c.provider_id == "fcm")
        assert (fcm.integration_id, fcm.credentials.device_tokens) == (
            FCM_NEW,
            ["tok-a1", "tok-a2", "tok-c"],
        )
        with pytest.raises(NotFoundError, match="No subscriber nobody"):
            await client.set_credentials("nobody", "fcm", ["x"])
        with pytest.raises(BadRequestError, match="no active apns integration"):
            await client.set_credentials("ada.lovelace", "apns", ["x"])
        with pytest.raises(ApiError, match="Device tokens limit exceeded"):
            await client.set_credentials("ada.lovelace", "fcm", [f"t{n}" for n in range(101)])
        await client.remove_credentials("ada.lovelace", "fcm")
        assert [
            c.provider_id for c in (await client.get_subscriber("ada.lovelace")).channels or []
        ] == ["slack"]
        # The request log never keeps a token or webhook URL whole.
        logged = b"".join(r.body for r in client.requests.entries)
        assert b"tok-c" not in logged and b"hooks.slack.test/new" not in logged


async def test_every_refusal_through_a_production_shaped_server_is_said_in_words(
    make_service: ServiceFactory,
) -> None:
    service = make_service(subscriber_fixture())
    with production_shaped(service.url) as url:
        async with InboxClient(url, STAGING_KEY, FAST) as client:
            said: list[str] = []
            attempts = [
                client.update_subscriber("ada.lovelace", {"email": "ada@nowhere"}),
                client.update_subscriber("ada.lovelace", {"timezone": ""}),
                client.update_subscriber("nobody", {"phone": "+14155550100"}),
                client.set_credentials("nobody", "fcm", ["t"]),
                client.set_credentials("ada.lovelace", "apns", ["t"]),
                client.set_credentials("ada.lovelace", "smtp", ["t"]),
                client.set_credentials("ada.lovelace", "fcm", [f"t{n}" for n in range(101)]),
                client.remove_credentials("nobody", "fcm"),
            ]
            for attempt in attempts:
                with pytest.raises(ApiError) as refused:
                    await attempt
                said.append(str(refused.value))
            assert said[0].startswith("The service refused the request: general: email must be")
            assert "timezone must be a valid IANA time-zone" in said[1]
            assert "Subscriber nobody was not found." in said[2]
            assert said[3].startswith("No subscriber nobody in this environment")
            assert said[4].startswith("This environment has no active apns integration")
            assert "providerId must be a valid provider ID" in said[5]
            assert "Maximum allowed tokens per subscriber channel is 100" in said[6]
            assert "Subscriber 'nobody' was not found." in said[7]
            # Each says what to do as well as what went wrong.
            assert all(len(s) > 40 for s in said)
