"""The core: what inboxdesk knows, free of any interface (no Textual, click or server)."""
