"""The history view: every write inboxdesk made with this profile, and undo of any."""
