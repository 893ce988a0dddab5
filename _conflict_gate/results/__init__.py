"""The shapes of results (decision, audit, lab, service) and their JSON Schema."""
