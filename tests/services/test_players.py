"""The player register (scoring.services.players): who is known, which names are welcome."""

from __future__ import annotations

import pytest

from scoring import services


@pytest.mark.django_db
def test_player_register_recognises_known_players():
    player, created = services.add_player(name="  Gönke   Hansen ", club="Schwesing")
    assert created and player.name == "Gönke Hansen"
    again, created = services.add_player(name="gönke hansen", club="SCHWESING")
    assert not created and again.pk == player.pk
    with pytest.raises(services.ServiceError):
        services.add_player(name="   ", club="x")


@pytest.mark.django_db
def test_visible_names_stay_welcome():
    for name, club in (("Søren Ærø-Hansen", "Nordfriesland"), ("Jan de Vries", ""), ("O'Neill, Máire", "Husum")):
        player, created = services.add_player(name=name, club=club)
        assert created and player.name == name
