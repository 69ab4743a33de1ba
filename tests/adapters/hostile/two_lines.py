"""Hostile: answers every request with two valid lines."""
from common import requests, answer, echo

for request in requests():
    answer(echo(request))
    answer(echo(request))
