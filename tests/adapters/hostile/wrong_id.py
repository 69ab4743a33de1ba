"""Hostile: a valid response line, but with another id."""
from common import requests, answer, echo

for request in requests():
    response = echo(request)
    response["id"] = (request.get("id") or 0) + 1000
    answer(response)
