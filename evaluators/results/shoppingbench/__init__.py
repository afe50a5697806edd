"""ShoppingBench's scoring: the reference's per-task rules (`rules`), failure categories (`failure`), catalog look-ups
(`catalog`) and the run and prediction scorer with its per-intent summaries (`scorer`)."""
