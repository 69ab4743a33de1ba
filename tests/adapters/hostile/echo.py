"""A well-behaved test adapter: answers hello, and every other request ok, echoing it."""
from common import requests, answer, echo

for request in requests():
    answer(echo(request))
