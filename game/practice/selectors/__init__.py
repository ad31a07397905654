"""The practice table's reads: nothing it does is stored."""
