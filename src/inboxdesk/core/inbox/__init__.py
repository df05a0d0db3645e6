"""The inbox's rules the app and the command line share: archive all, exact ends,
finding a message, snoozes, webhooks' warnings and an unknown subscriber."""
