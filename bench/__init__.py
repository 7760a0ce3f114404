"""One bench over every corpus listed in corpora.json: cold ingestion (cached per corpus and recipe), retrieval in
every mode, the agent in extractive mode, and parse quality, as one scoreboard (python -m bench)."""
