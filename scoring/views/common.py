"""Small helpers shared by the views of every role."""

from django.shortcuts import get_object_or_404

from scoring.models import Evening


def evening_or_404(pk: int) -> Evening:
    """The evening with this number, or the friendly 404 page."""
    return get_object_or_404(Evening, pk=pk)
