// TraceRecorder module.
