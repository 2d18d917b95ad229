import { SelectField, TextAreaField, TextField } from './form-controls'
import { PortraitField, type PhotoOption } from './portrait-field'
import { GST_STATES } from '~/lib/gst-states'

type Field = Parameters<typeof TextField>[0]['field']

const STATE_OPTIONS = GST_STATES.map((state) => ({ value: state.code, label: state.name }))

type VenueFieldNames = 'name' | 'address' | 'city' | 'stateCode' | 'mapUrl' | 'photoId' | 'hostName' | 'hostEmail' | 'hostPhone' | 'travelMinutes' | 'gstin' | 'invoiceSeries'

/**
 * A venue's details, as staff add one and edit it: where it is, its photo, how far it is, who hosts
 * the lab there, and the lab's GST registration in its state when it holds one (not on the lab's
 * home, whose GSTIN is in the settings).
 */
export function VenueFields({ fields, photos, isHome = false }: { fields: Record<VenueFieldNames, Field>; photos: PhotoOption[]; isHome?: boolean }) {
  return (
    <div className="grid gap-5 md:grid-cols-2">
      <TextField field={fields.name} label="Name" />
      <TextField field={fields.city} label="City" autoComplete="address-level2" />
      <div className="md:col-span-2">
        <TextAreaField field={fields.address} label="Address" />
      </div>
      <SelectField field={fields.stateCode} label="State" options={STATE_OPTIONS} />
      <TextField field={fields.travelMinutes} label="Travel time in minutes" inputMode="numeric" hint="From the lab, each way." />
      <TextField field={fields.mapUrl} label="Map link" optional placeholder="https://" hint="Its address on a map, starting with https://." />
      <PortraitField field={fields.photoId} portraits={photos} hint="A photo from the Venue photos, with alt text." />
      <TextField field={fields.hostName} label="Host’s name" optional />
      <TextField field={fields.hostEmail} label="Host’s e-mail" type="email" optional />
      <TextField field={fields.hostPhone} label="Host’s mobile number" type="tel" inputMode="tel" optional />
      {!isHome && (
        <fieldset className="grid gap-5 md:col-span-2 md:grid-cols-2">
          <legend className="text-sm font-semibold text-ink">GST registration in this venue’s state</legend>
          <p className="text-sm text-muted md:col-span-2">
            Only where the lab holds a GST registration of its own in this state: sessions here are then invoiced under it, with CGST and SGST, numbered in its series. Without one, a venue in another state is invoiced by the lab with IGST.
          </p>
          <TextField field={fields.gstin} label="GSTIN" optional hint="15 characters, starting with this venue’s state code." />
          <TextField field={fields.invoiceSeries} label="Invoice series" optional hint="1 to 3 letters or digits, for example PUN: invoices read PUN/26-27/000001." />
        </fieldset>
      )}
    </div>
  )
}
