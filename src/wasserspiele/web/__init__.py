"""The web app: lobby, live tables over WebSockets, replays (`wasserspiele serve`).

The server is the only place rules run: clients receive views (`state.view(seat)`)
and legal moves, and send moves in notation, which the game validates.
"""
