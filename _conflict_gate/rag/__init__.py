"""Retrieved chunks -> the chunks a model may see: the shared filter and one adapter per RAG framework."""
