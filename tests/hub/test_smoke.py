from tests.hub.conftest import evening_snapshot, post


def test_a_snapshot_is_applied_and_shown(hub):
    client, club, key = hub
    answer = post(client, evening_snapshot(), key)
    assert answer.status_code == 200, answer.content
    assert answer.json() == {"status": "applied", "version": 100}
    page = client.get(f"/verein/{club.slug}/abend/hall-1-17/")
    assert page.status_code == 200
    assert "Spieler 0001 Hansen" in page.content.decode()
    for language in ("en", "da", "sv"):
        assert client.get(f"/{language}/verein/{club.slug}/abend/hall-1-17/").status_code == 200
    assert client.get("/").status_code == 200
    assert client.get(f"/verein/{club.slug}/").status_code == 200
    assert client.get(f"/verein/{club.slug}/spieler/p-0001/").status_code == 200
