"""A cluster of server nodes on one PostgreSQL and one Redis (:mod:`.node`)."""
