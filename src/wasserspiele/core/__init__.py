"""The shared core: protocol, options, chance, cards, records, registry, errors."""
