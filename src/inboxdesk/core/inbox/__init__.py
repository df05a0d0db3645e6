"""The inbox's rules, shared by the app's inbox screen and the command line: the tabs,
the rows and a listing's state, what the inbox loads, its writes as plans, where a
found message lands, archive all, exact ends, finding a message, snoozes, webhooks'
warnings and an unknown subscriber."""
