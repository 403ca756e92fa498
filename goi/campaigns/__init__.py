"""The campaign runner (docs/CAMPAIGNS.md): a large piece of work divided into shards, run
here or on a Dask cluster, checkpointed shard by shard (checkpoint.py), with its faults named
(faults.py). Used alike by the properties' campaigns and oracle mode's, which give it their
works; it knows nothing of the theorems."""
