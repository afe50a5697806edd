"""`shopbench study play` / `serve`: a participant's path through a study, on the play app's own episode screens."""
