"""mjsnap subcommands, one module per area; each keeps heavy imports inside its functions."""
