"""Human studies (`shopbench study`): a study is a folder holding its manifest (who plays what, in which order,
after which qualification), one append-only log per participant and the participants' episodes. This package is the
logic below the screens: assignment, progress, quality control and export."""
