"""Infiltration's orders (rules: Order grammar): typed values with a canonical text, the
parser of an order block, the terminal orders, and the orders each actor may give in the
open phase, for order forms and HELP."""
