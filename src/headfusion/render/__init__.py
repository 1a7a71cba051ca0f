"""Render: the document model, LaTeX, plots and the PDF build (I/O at the edge)."""
