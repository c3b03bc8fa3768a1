"""Pure Python core of Bruus Turnier: the rules of Bruus, the draw, the ranking maths and
the parsing of player files.

Nothing in this package imports Django, so it is tested without a database. User-facing
messages are English msgids marked with :func:`scoring.domain.errors.gettext_noop`; the Django
layer translates them when it shows them (see ``scoring.web.messages``).
"""
