"""`python -m kaiza_site.serve`: how Kaiza is served (`make run`, the tests' servers, a deployment).

daphne's own command line (`python -m kaiza_site.serve -b 127.0.0.1 -p 8000 kaiza_site.asgi:application`)
with Kaiza's server (kaiza_site.server.daphne_server), which runs the process's start-up
(kaiza_site.server.startup.start) once the application is loaded.
"""

from __future__ import annotations

from kaiza_site.server.daphne_server import main

if __name__ == "__main__":
    main()
