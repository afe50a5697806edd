"""shopbench inside other frameworks: Inspect AI tasks (`inspect/`), a Gymnasium environment (`gym/`) and the SFT
export of successful trajectories (`export_sft`)."""
