// The helpers shared by the test targets (Tests/TestSupport), visible in every file of this
// target without an import line of its own.
@_exported import TestSupport
