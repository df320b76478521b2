"""Benchmarks run by `kbx bench`: measuring code and the third-party references it is measured
against, kept out of the packages that serve (the references need the optional `bench` extra)."""
