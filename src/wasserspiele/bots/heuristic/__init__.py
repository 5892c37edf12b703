"""Per-game heuristic bots: module `bots.heuristic.<game>` defines `HeuristicBot`."""
