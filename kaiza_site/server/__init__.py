"""How Kaiza is served, and every adaptation of a library's internals, each in its module with a
contract test (tests/realtime/test_library_contracts.py) and a decision record (docs/decisions/):

- `startup`: the server process's start-up (`start()`), run by `python -m kaiza_site.serve`;
- `daphne_server`: daphne's `Server` subclassed (direct frames, close reasons, slow clients);
- `write_through`: Twisted's `Connection.write` sends at once when nothing is queued.
- `channels_dispatch`: a consumer's messages handled without Channels' database hop before each;
- `allauth_login_key`: allauth's count of failed logins keyed by name and address.
"""
