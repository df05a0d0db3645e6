"""UI-free rules and use-cases that the app and the command line share, one package per
feature. The core imports models, the client, config, writes and the shared modules;
never Textual, click or the service."""
