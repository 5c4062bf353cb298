"""Bohnanza – Das Würfelspiel: dice, orders, exact odds and the turn referee."""
