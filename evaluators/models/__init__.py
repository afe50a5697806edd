"""Model backends behind one interface (ModelAPI)."""
