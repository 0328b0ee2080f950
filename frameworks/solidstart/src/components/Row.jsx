// One World row of the page test's table (tfbench page contract,
// docs/ssr.md): two cells, the id and the randomNumber.
export default function Row(props) {
  return (
    <tr class="row" data-id={props.id}>
      <td class="id">{props.id}</td>
      <td class="num">{props.randomNumber}</td>
    </tr>
  );
}
