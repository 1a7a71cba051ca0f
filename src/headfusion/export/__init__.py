"""Exports of certificates to proof assistants (`headfusion export --coq`): read certificate JSON, write text."""
