"""Search: finite queries (L2, L3, L4, LS), solvers, refutation trees and their distribution."""
