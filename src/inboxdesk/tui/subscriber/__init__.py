"""The Subscriber view (`6`, or `i` from the inbox, Activity and a timeline): a
subscriber's own data, its credentials masked, and fixing them through the outbox."""
