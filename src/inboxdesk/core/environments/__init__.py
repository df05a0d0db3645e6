"""Environments' rules the app and the command line share: integrations across the
keys held, and what a primary switch changes."""
