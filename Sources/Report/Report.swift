// Report module.
