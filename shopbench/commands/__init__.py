"""One module per `shopbench` subcommand; each exposes `register(app: typer.Typer)`."""
