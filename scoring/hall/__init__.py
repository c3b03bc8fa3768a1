"""Who acts in the hall and what they may do: the organiser roles (``roles``) and their login
backend (``auth_backends``), the tables' short codes (``table_codes``) and link tokens
(``table_links``), the guessing limits (``throttle``) keyed by the device's address
(``client_address``), and where a change came from (``origin``: source, table, team, role, login,
kept on every change record)."""
