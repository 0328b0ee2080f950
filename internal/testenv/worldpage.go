package testenv

import (
	"database/sql"
	"fmt"
	"strings"
)

// WorldPage renders World rows 1..n read from db as the page test's
// contract wants them (docs/ssr.md, The page), with a hydration script after
// the table: the page a fake page server sends in the run and sweep tests.
func WorldPage(db *sql.DB, n int) ([]byte, error) {
	rows, err := db.Query("SELECT id, randomNumber FROM World WHERE id BETWEEN 1 AND ? ORDER BY id", n)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var b strings.Builder
	b.WriteString("<!DOCTYPE html><html><head><title>World</title></head><body><table><thead><tr><th>id</th><th>randomNumber</th></tr></thead><tbody>")
	for rows.Next() {
		var id, num int
		if err := rows.Scan(&id, &num); err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, `<tr class="row" data-id="%d"><td class="id">%d</td><td class="num">%d</td></tr>`, id, id, num)
	}
	b.WriteString("</tbody></table><script>hydrate()</script></body></html>")
	return []byte(b.String()), rows.Err()
}
