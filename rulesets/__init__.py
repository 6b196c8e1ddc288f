"""Rules engines for the four systems Datapad keeps, in pure Python (no Django)."""
