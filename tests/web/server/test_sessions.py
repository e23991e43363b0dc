"""Sessions and passes the bot signs for a page: nothing the page can forge,
alter, move to another user or channel, or keep past its time."""

from __future__ import annotations

from web.server.sessions import LIFETIME, PASS_LIFETIME, Signer, session_key

SIGNER = Signer(session_key("token", "secret"))
NOW = 1_800_000_000.0


def test_a_session_names_its_user_until_it_expires() -> None:
    token = SIGNER.issue(123456789012345678, "Anna\nB", "nl", now=NOW)
    session = SIGNER.verify(token, now=NOW + LIFETIME)
    assert session is not None and (session.user_id, session.name, session.locale) == (
        123456789012345678, "Anna\nB", "nl")
    assert SIGNER.verify(token, now=NOW + LIFETIME + 1) is None
    assert Signer(session_key("token", "other")).verify(token, now=NOW) is None


def test_a_pass_is_for_one_user_and_one_channel_for_two_minutes() -> None:
    ticket = SIGNER.issue_pass(1, 2, "anna", now=NOW)
    assert SIGNER.verify_pass(ticket, 1, 2, now=NOW + PASS_LIFETIME) == "anna"
    assert SIGNER.verify_pass(ticket, 1, 2, now=NOW + PASS_LIFETIME + 1) is None
    assert SIGNER.verify_pass(ticket, 9, 2, now=NOW) is None
    assert SIGNER.verify_pass(ticket, 1, 9, now=NOW) is None


def test_a_pass_is_no_session_and_a_session_no_pass() -> None:
    ticket = SIGNER.issue_pass(1, 2, "anna", now=NOW)
    token = SIGNER.issue(1, "anna", "en", now=NOW)
    assert SIGNER.verify(ticket, now=NOW) is None
    assert SIGNER.verify_pass(token, 1, 2, now=NOW) is None
    body, _, sig = token.partition(".")
    assert SIGNER.verify(body[:-2] + "AA." + sig, now=NOW) is None
    assert SIGNER.verify("", now=NOW) is None and SIGNER.verify_pass("x.y", 1, 2) is None
