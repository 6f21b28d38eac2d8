# A test that fails with MESSAGE: stands for a test that cannot run here.
message(FATAL_ERROR "${MESSAGE}")
