"""The load client of `python manage.py loadtest`: real websocket clients against a running server.

Kept apart from Django (it only speaks HTTP and websockets to the server) so that several client
processes can run it without setting Django up.
"""
