/// The messenger view: devices online, mailbox depth and oldest envelope age per device, and push
/// results, from `GET /v1/messenger/devices`. There is no message content to show.
enum ConsoleMessengerScript {
    static let messenger = ConsoleScript.view(
        #"""

          const age = (seconds) => {
            if (seconds === null || seconds === undefined) return "—";
            if (seconds < 120) return seconds + " s";
            if (seconds < 7200) return Math.floor(seconds / 60) + " min";
            if (seconds < 172800) return Math.floor(seconds / 3600) + " h";
            return Math.floor(seconds / 86400) + " days";
          };

          C.views.messenger = {
            async enter() {
              C.showOnly("messenger-view");
              const body = document.querySelector("#messenger-table tbody");
              C.clear(body);
              try {
                const answer = await C.api("GET", "/v1/messenger/devices");
                const online = answer.devices.filter((d) => d.online).length;
                $("messenger-summary").textContent = answer.devices.length + " devices, " + online + " online here; pushes sent " +
                  answer.pushes.sent + ", coalesced " + answer.pushes.coalesced + ", failed " + answer.pushes.failed +
                  (answer.truncated ? " (list truncated)" : "");
                for (const device of answer.devices) {
                  const row = document.createElement("tr");
                  row.appendChild(C.element("th", device.accountId, { scope: "row" }));
                  row.appendChild(C.element("td", device.deviceId + " " + device.name));
                  row.appendChild(C.element("td", device.online ? "online" : "offline"));
                  row.appendChild(C.element("td", device.mailboxDepth));
                  row.appendChild(C.element("td", age(device.oldestEnvelopeAgeSeconds)));
                  row.appendChild(C.element("td", device.push || "none"));
                  body.appendChild(row);
                }
              } catch (error) { $("messenger-summary").textContent = error.message; }
            },
          };

          document.addEventListener("DOMContentLoaded", () => {
            $("messenger-refresh").addEventListener("click", () => C.views.messenger.enter());
          });
        """#)
}
